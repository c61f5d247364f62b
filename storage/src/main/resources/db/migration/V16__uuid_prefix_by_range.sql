-- A prefix of a uuid's text names a range of uuids (the text is the bytes in hex, in order), which the
-- node table's uuid index answers: the index of the text of every uuid (V10) cost each stored node a
-- conversion to text and a second, wider index entry, and is no longer read.
DROP INDEX node_uuid_prefix_idx;
