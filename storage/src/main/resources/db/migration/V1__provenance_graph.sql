-- The provenance graph: nodes, links, and the entities around them.
-- Rules that the database can hold are held here, not only in Java: link degrees and
-- labels (partial unique indexes), link kinds and sealed nodes (a statement trigger),
-- immutability of stored nodes (a row trigger).

CREATE TABLE app_user (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email       text NOT NULL UNIQUE CHECK (email <> ''),
    first_name  text NOT NULL DEFAULT '',
    last_name   text NOT NULL DEFAULT '',
    institution text NOT NULL DEFAULT ''
);

CREATE TABLE computer (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uuid           uuid NOT NULL UNIQUE,
    label          text NOT NULL UNIQUE CHECK (label <> ''),
    hostname       text NOT NULL,
    description    text NOT NULL DEFAULT '',
    transport_type text NOT NULL,
    scheduler_type text NOT NULL,
    metadata       jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object')
);

CREATE TABLE authinfo (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES app_user ON DELETE CASCADE,
    computer_id bigint NOT NULL REFERENCES computer ON DELETE CASCADE,
    auth_params jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(auth_params) = 'object'),
    metadata    jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    enabled     boolean NOT NULL DEFAULT true,
    UNIQUE (user_id, computer_id)
);

CREATE TABLE node (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uuid                uuid NOT NULL UNIQUE,
    -- dotted and ending in '.', so that LIKE 'data.core.%' finds a type and its subtypes
    node_type           text NOT NULL CHECK (node_type ~ '^(data|process)\.([A-Za-z0-9_]+\.)+$'),
    process_type        text,
    label               text NOT NULL DEFAULT '',
    description         text NOT NULL DEFAULT '',
    ctime               timestamptz NOT NULL,
    mtime               timestamptz NOT NULL,
    user_id             bigint NOT NULL REFERENCES app_user,
    computer_id         bigint REFERENCES computer,
    attributes          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attributes) = 'object'),
    extras              jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(extras) = 'object'),
    repository_metadata jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(repository_metadata) = 'object'),
    -- hex BLAKE2b-256 of the node's canonical form (dev.cairn.storage.hash)
    hash                text CHECK (hash ~ '^[0-9a-f]{64}$')
);
-- Attributes are often several KiB (structures): lz4 decompresses several times faster than pglz.
ALTER TABLE node ALTER COLUMN attributes SET COMPRESSION lz4;
ALTER TABLE node ALTER COLUMN extras SET COMPRESSION lz4;

CREATE INDEX node_type_idx ON node (node_type text_pattern_ops);
CREATE INDEX node_process_type_idx ON node (process_type text_pattern_ops);
CREATE INDEX node_label_idx ON node (label text_pattern_ops);
CREATE INDEX node_ctime_idx ON node (ctime);
CREATE INDEX node_mtime_idx ON node (mtime);
CREATE INDEX node_hash_idx ON node (hash) WHERE hash IS NOT NULL;
CREATE INDEX node_user_idx ON node (user_id);
CREATE INDEX node_computer_idx ON node (computer_id) WHERE computer_id IS NOT NULL;

CREATE TABLE link (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    input_id  bigint NOT NULL REFERENCES node ON DELETE CASCADE,
    output_id bigint NOT NULL REFERENCES node ON DELETE CASCADE,
    type      text NOT NULL
        CHECK (type IN ('create', 'return', 'input_calc', 'input_work', 'call_calc', 'call_work')),
    -- an identifier of [A-Za-z0-9_] that neither starts nor ends with '_'
    label     text NOT NULL CHECK (label ~ '^[A-Za-z0-9]([A-Za-z0-9_]*[A-Za-z0-9])?$'),
    CHECK (input_id <> output_id)
);
-- Both directions are index-only scans for traversals: (from, to, type) in each order.
CREATE UNIQUE INDEX link_triple_idx ON link (input_id, output_id, type, label);
CREATE INDEX link_output_idx ON link (output_id, input_id, type);
-- Degree rules of the six link types.
CREATE UNIQUE INDEX link_one_creator_idx ON link (output_id) WHERE type = 'create';
CREATE UNIQUE INDEX link_one_caller_idx ON link (output_id) WHERE type IN ('call_calc', 'call_work');
CREATE UNIQUE INDEX link_create_label_idx ON link (input_id, label) WHERE type = 'create';
CREATE UNIQUE INDEX link_return_label_idx ON link (input_id, label) WHERE type = 'return';
CREATE UNIQUE INDEX link_input_label_idx ON link (output_id, label) WHERE type IN ('input_calc', 'input_work');

CREATE TABLE node_group (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uuid        uuid NOT NULL UNIQUE,
    label       text NOT NULL CHECK (label <> ''),
    type_string text NOT NULL DEFAULT 'core',
    description text NOT NULL DEFAULT '',
    time        timestamptz NOT NULL,
    user_id     bigint NOT NULL REFERENCES app_user,
    extras      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(extras) = 'object'),
    UNIQUE (label, type_string)
);

CREATE TABLE group_member (
    group_id bigint NOT NULL REFERENCES node_group ON DELETE CASCADE,
    node_id  bigint NOT NULL REFERENCES node ON DELETE CASCADE,
    PRIMARY KEY (group_id, node_id)
);
CREATE INDEX group_member_node_idx ON group_member (node_id);

CREATE TABLE comment (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uuid    uuid NOT NULL UNIQUE,
    node_id bigint NOT NULL REFERENCES node ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES app_user,
    ctime   timestamptz NOT NULL,
    mtime   timestamptz NOT NULL,
    content text NOT NULL
);
CREATE INDEX comment_node_idx ON comment (node_id);

CREATE TABLE log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uuid        uuid NOT NULL UNIQUE,
    time        timestamptz NOT NULL,
    logger_name text NOT NULL,
    level_name  text NOT NULL,
    node_id     bigint NOT NULL REFERENCES node ON DELETE CASCADE,
    message     text NOT NULL,
    metadata    jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object')
);
CREATE INDEX log_node_idx ON log (node_id, time);

CREATE TABLE setting (
    key         text PRIMARY KEY,
    value       jsonb NOT NULL,
    description text NOT NULL DEFAULT '',
    time        timestamptz NOT NULL DEFAULT now()
);

-- Attributes a process node may still change while it is stored but not sealed.
CREATE FUNCTION process_updatable_attributes() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
    SELECT ARRAY['sealed', 'paused', 'checkpoints', 'exception', 'exit_message', 'exit_status',
                 'process_label', 'process_state', 'process_status',
                 -- calculation jobs
                 'state', 'imported', 'remote_workdir', 'retrieve_list', 'retrieve_temporary_list',
                 'job_id', 'scheduler_state', 'scheduler_lastchecktime', 'last_job_info',
                 'detailed_job_info']
$$;

-- A stored node keeps its identity, type, owner, files and attributes; label, description,
-- extras and mtime stay mutable, and so do a process node's state attributes until it is sealed.
CREATE FUNCTION node_guard_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.uuid <> OLD.uuid OR NEW.node_type <> OLD.node_type
        OR NEW.process_type IS DISTINCT FROM OLD.process_type OR NEW.ctime <> OLD.ctime
        OR NEW.user_id <> OLD.user_id OR NEW.computer_id IS DISTINCT FROM OLD.computer_id
        OR NEW.repository_metadata <> OLD.repository_metadata THEN
        RAISE EXCEPTION 'node % (%) is stored: only label, description, extras and a process''s state may change',
            OLD.id, OLD.uuid USING ERRCODE = 'CA001';
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
CREATE TRIGGER node_guard_update BEFORE UPDATE ON node FOR EACH ROW EXECUTE FUNCTION node_guard_update();

-- New links must join the kinds of node their type allows and may not touch a sealed node.
-- One statement-level check per insert, so batches of thousands of links cost one join.
CREATE FUNCTION link_guard_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    SELECT a.id AS link_id, a.type, a.label, i.id AS input_id, i.node_type AS input_type,
           o.id AS output_id, o.node_type AS output_type,
           coalesce((i.attributes ->> 'sealed')::boolean, false)
               OR coalesce((o.attributes ->> 'sealed')::boolean, false) AS sealed
      INTO bad
      FROM added a
      JOIN node i ON i.id = a.input_id
      JOIN node o ON o.id = a.output_id
     WHERE NOT CASE a.type
               WHEN 'create'     THEN i.node_type LIKE 'process.calculation.%' AND o.node_type LIKE 'data.%'
               WHEN 'return'     THEN i.node_type LIKE 'process.workflow.%'    AND o.node_type LIKE 'data.%'
               WHEN 'input_calc' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.calculation.%'
               WHEN 'input_work' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.workflow.%'
               WHEN 'call_calc'  THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.calculation.%'
               WHEN 'call_work'  THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.workflow.%'
               END
        OR coalesce((i.attributes ->> 'sealed')::boolean, false)
        OR coalesce((o.attributes ->> 'sealed')::boolean, false)
     LIMIT 1;
    IF FOUND THEN
        IF bad.sealed THEN
            RAISE EXCEPTION 'link % % -> % (label %): a sealed node takes no new links',
                upper(bad.type), bad.input_id, bad.output_id, bad.label USING ERRCODE = 'CA002';
        END IF;
        RAISE EXCEPTION 'link % % -> % (label %): % cannot join % to %',
            upper(bad.type), bad.input_id, bad.output_id, bad.label, upper(bad.type),
            bad.input_type, bad.output_type USING ERRCODE = 'CA002';
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER link_guard_insert AFTER INSERT ON link REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION link_guard_insert();
