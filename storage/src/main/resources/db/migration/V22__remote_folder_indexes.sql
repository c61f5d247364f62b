-- Removing working folders (cairn calcjob cleanworkdir, node delete --clean-workdir) marks the RemoteData
-- at those paths and the jobs whose folders they were (RemoteWorkdirs.markRemoved). By computer_id alone
-- each batch of 100 folders read every node of the computer: 150 ms with 200,000 nodes on it, growing
-- with the database; with these it reads the nodes at those paths, about 3 ms at any size. Partial, so
-- only these two node types pay for them.
CREATE INDEX node_remote_path_idx ON node (computer_id, (attributes ->> 'remote_path'))
    WHERE node_type = 'data.core.remote.RemoteData.';
CREATE INDEX node_remote_workdir_idx ON node (computer_id, (attributes ->> 'remote_workdir'))
    WHERE node_type = 'process.calculation.calcjob.CalcJobNode.';
