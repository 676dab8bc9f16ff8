-- Keep equivalent to ../sqlite/0008_tournament_owner.sql (BIGINT here, INTEGER there).
--
-- Several server nodes (issue 39): a tournament not over is run by one node at a time, its
-- owner, claimed as a live game is (0006_cluster.sql: `epoch` grows by one at every claim,
-- and another node may claim it once the owner's lease has run out). A single node never
-- claims: owner NULL, epoch 0.
ALTER TABLE tournaments ADD COLUMN owner TEXT COLLATE "C";
ALTER TABLE tournaments ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
