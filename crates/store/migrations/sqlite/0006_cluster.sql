-- Keep equivalent to ../postgres/0006_cluster.sql (INTEGER here, BIGINT there).
--
-- Several server nodes on one database (issue 39). Each node renews a lease in `nodes`; each
-- live game is owned by at most one node, and `epoch` grows by one at every claim. A write
-- of a game's action carries the epoch its writer claimed, and changes nothing once another
-- node has claimed the game since: a stale owner (paused, partitioned, presumed dead) can
-- never write over the new one (a fencing token). A single node never claims: its games keep
-- owner NULL and epoch 0, and its writes are not fenced.
--
-- Times are the database's clock in milliseconds since the Unix epoch, so that all nodes
-- compare leases against one clock.
CREATE TABLE nodes (
    id             TEXT    PRIMARY KEY,
    started_at_ms  INTEGER NOT NULL,
    heartbeat_ms   INTEGER NOT NULL,  -- the last heartbeat
    lease_until_ms INTEGER NOT NULL   -- its games may be claimed by others after this
);

ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;

CREATE INDEX games_owner ON games (owner) WHERE owner IS NOT NULL;
