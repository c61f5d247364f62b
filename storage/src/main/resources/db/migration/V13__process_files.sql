-- A calculation job keeps on its node the input files and submit script it was submitted with,
-- written by the step that submits it (as AiiDA does at upload). So a process node's files may
-- change, as its state attributes do, until it is sealed; a data node's files never change.
CREATE OR REPLACE FUNCTION node_guard_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.uuid <> OLD.uuid OR NEW.node_type <> OLD.node_type
        OR NEW.process_type IS DISTINCT FROM OLD.process_type OR NEW.ctime <> OLD.ctime
        OR NEW.user_id <> OLD.user_id OR NEW.computer_id IS DISTINCT FROM OLD.computer_id THEN
        RAISE EXCEPTION 'node % (%) is stored: only label, description, extras and a process''s state and files may change',
            OLD.id, OLD.uuid USING ERRCODE = 'CA001';
    END IF;
    IF NEW.repository_metadata <> OLD.repository_metadata THEN
        IF OLD.node_type NOT LIKE 'process.%' THEN
            RAISE EXCEPTION 'node % (%) is stored: the files of a data node cannot change',
                OLD.id, OLD.uuid USING ERRCODE = 'CA001';
        END IF;
        IF coalesce((OLD.attributes ->> 'sealed')::boolean, false) THEN
            RAISE EXCEPTION 'process node % (%) is sealed: its files cannot change',
                OLD.id, OLD.uuid USING ERRCODE = 'CA001';
        END IF;
    END IF;
    IF NEW.attributes <> OLD.attributes THEN
        IF OLD.node_type NOT LIKE 'process.%' THEN
            RAISE EXCEPTION 'node % (%) is stored: the attributes of a data node cannot change',
                OLD.id, OLD.uuid USING ERRCODE = 'CA001';
        END IF;
        IF coalesce((OLD.attributes ->> 'sealed')::boolean, false) THEN
            RAISE EXCEPTION 'process node % (%) is sealed: its attributes cannot change',
                OLD.id, OLD.uuid USING ERRCODE = 'CA001';
        END IF;
        IF (NEW.attributes - process_updatable_attributes()) <> (OLD.attributes - process_updatable_attributes()) THEN
            RAISE EXCEPTION 'process node % (%) is stored: only its state attributes (%) may change',
                OLD.id, OLD.uuid, array_to_string(process_updatable_attributes(), ', ') USING ERRCODE = 'CA001';
        END IF;
    END IF;
    RETURN NEW;
END
$$;
