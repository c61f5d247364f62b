-- The server's bearer tokens. Each is bound to a user and has roles (read, submit, admin); only
-- a hash of its secret is kept, so a token is shown once, when it is made.
CREATE TABLE api_token (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uuid        uuid        NOT NULL UNIQUE,
    user_id     bigint      NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    secret_hash bytea       NOT NULL UNIQUE,
    roles       text[]      NOT NULL,
    created     timestamptz NOT NULL DEFAULT now(),
    expires     timestamptz,
    last_used   timestamptz,
    revoked     timestamptz,
    CONSTRAINT api_token_roles_check CHECK (cardinality(roles) > 0 AND roles <@ ARRAY['read', 'submit', 'admin'])
);
CREATE INDEX api_token_user_idx ON api_token (user_id);
