-- Keep equivalent to ../postgres/0008_tournament_owner.sql (INTEGER here, BIGINT there).
--
-- Several server nodes (issue 39): a tournament not over is run by one node at a time, its
-- owner, claimed as a live game is (0006_cluster.sql: `epoch` grows by one at every claim,
-- and another node may claim it once the owner's lease has run out). A single node never
-- claims: owner NULL, epoch 0.
ALTER TABLE tournaments ADD COLUMN owner TEXT;
ALTER TABLE tournaments ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
