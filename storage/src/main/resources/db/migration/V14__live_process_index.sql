-- The processes that have not ended (created or waiting): what `cairn process list` shows by default, and
-- what a client waiting for its work to finish asks for again and again. Without this index such a list
-- walked node_ctime_idx past every ended process and every data node: 11 ms with 19,200 nodes once all
-- had ended, and in proportion on a graph of millions. The list writes the states it asks for as literals
-- (they are checked against the fixed set of states first), so the planner can tell that this index holds
-- every row it wants.
CREATE INDEX node_live_process_idx ON node (ctime, id)
    WHERE node_type LIKE 'process.%' AND (attributes ->> 'process_state') IN ('created', 'waiting');
