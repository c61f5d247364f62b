-- The database of an AiiDA archive (main_0001): what aiida-core 2.9.4 creates in db.sqlite3 when it
-- writes an archive (SQLAlchemy's create_all of aiida.storage.sqlite_zip.models on SQLite), statement for
-- statement and byte for byte (tabs and trailing spaces included: SQLite keeps the text in
-- sqlite_master), as read back from one archive aiida-core wrote. aiida-core itself orders a table's
-- constraints and its indexes differently from one archive to the next (SQLAlchemy iterates sets);
-- the tables, columns, keys and indexes are always these.
-- AiidaArchiveWriter runs the statements one by one: each ends with a semicolon at the end of a line.

CREATE TABLE db_dbcomputer (
	id INTEGER NOT NULL, 
	uuid VARCHAR(32) NOT NULL, 
	label VARCHAR(255) NOT NULL, 
	hostname VARCHAR(255) NOT NULL, 
	description TEXT NOT NULL, 
	scheduler_type VARCHAR(255) NOT NULL, 
	transport_type VARCHAR(255) NOT NULL, 
	metadata JSON NOT NULL, 
	CONSTRAINT db_dbcomputer_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dbcomputer_uuid UNIQUE (uuid), 
	CONSTRAINT uq_db_dbcomputer_label UNIQUE (label)
);

CREATE TABLE db_dbsetting (
	id INTEGER NOT NULL, 
	"key" VARCHAR(1024) NOT NULL, 
	val JSON, 
	description TEXT NOT NULL, 
	time DATETIME NOT NULL, 
	CONSTRAINT db_dbsetting_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dbsetting_key UNIQUE ("key")
);

CREATE TABLE db_dbuser (
	id INTEGER NOT NULL, 
	email VARCHAR(254) NOT NULL, 
	first_name VARCHAR(254) NOT NULL, 
	last_name VARCHAR(254) NOT NULL, 
	institution VARCHAR(254) NOT NULL, 
	CONSTRAINT db_dbuser_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dbuser_email UNIQUE (email)
);

CREATE TABLE db_dbauthinfo (
	id INTEGER NOT NULL, 
	aiidauser_id INTEGER NOT NULL, 
	dbcomputer_id INTEGER NOT NULL, 
	metadata JSON NOT NULL, 
	auth_params JSON NOT NULL, 
	enabled BOOLEAN NOT NULL, 
	CONSTRAINT db_dbauthinfo_pkey PRIMARY KEY (id), 
	CONSTRAINT fk_db_dbauthinfo_aiidauser_id_db_dbuser FOREIGN KEY(aiidauser_id) REFERENCES db_dbuser (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, 
	CONSTRAINT fk_db_dbauthinfo_dbcomputer_id_db_dbcomputer FOREIGN KEY(dbcomputer_id) REFERENCES db_dbcomputer (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, 
	CONSTRAINT uq_db_dbauthinfo_aiidauser_id_dbcomputer_id UNIQUE (aiidauser_id, dbcomputer_id)
);

CREATE INDEX ix_db_dbauthinfo_db_dbauthinfo_dbcomputer_id ON db_dbauthinfo (dbcomputer_id);
CREATE INDEX ix_db_dbauthinfo_db_dbauthinfo_aiidauser_id ON db_dbauthinfo (aiidauser_id);
CREATE TABLE db_dbgroup (
	id INTEGER NOT NULL, 
	uuid VARCHAR(32) NOT NULL, 
	label VARCHAR(255) NOT NULL, 
	type_string VARCHAR(255) NOT NULL, 
	time DATETIME NOT NULL, 
	description TEXT NOT NULL, 
	extras JSON NOT NULL, 
	user_id INTEGER NOT NULL, 
	CONSTRAINT db_dbgroup_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dbgroup_uuid UNIQUE (uuid), 
	CONSTRAINT fk_db_dbgroup_user_id_db_dbuser FOREIGN KEY(user_id) REFERENCES db_dbuser (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, 
	CONSTRAINT uq_db_dbgroup_label_type_string UNIQUE (label, type_string)
);

CREATE INDEX ix_db_dbgroup_db_dbgroup_type_string ON db_dbgroup (type_string);
CREATE INDEX ix_db_dbgroup_db_dbgroup_user_id ON db_dbgroup (user_id);
CREATE INDEX ix_db_dbgroup_db_dbgroup_label ON db_dbgroup (label);
CREATE TABLE db_dbnode (
	id INTEGER NOT NULL, 
	uuid VARCHAR(32) NOT NULL, 
	node_type VARCHAR(255) NOT NULL, 
	process_type VARCHAR(255), 
	label VARCHAR(255) NOT NULL, 
	description TEXT NOT NULL, 
	ctime DATETIME NOT NULL, 
	mtime DATETIME NOT NULL, 
	attributes JSON, 
	extras JSON, 
	repository_metadata JSON NOT NULL, 
	dbcomputer_id INTEGER, 
	user_id INTEGER NOT NULL, 
	CONSTRAINT db_dbnode_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dbnode_uuid UNIQUE (uuid), 
	CONSTRAINT fk_db_dbnode_dbcomputer_id_db_dbcomputer FOREIGN KEY(dbcomputer_id) REFERENCES db_dbcomputer (id) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED, 
	CONSTRAINT fk_db_dbnode_user_id_db_dbuser FOREIGN KEY(user_id) REFERENCES db_dbuser (id) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX ix_db_dbnode_db_dbnode_process_type ON db_dbnode (process_type);
CREATE INDEX ix_db_dbnode_db_dbnode_ctime ON db_dbnode (ctime);
CREATE INDEX ix_db_dbnode_db_dbnode_node_type ON db_dbnode (node_type);
CREATE INDEX ix_db_dbnode_db_dbnode_label ON db_dbnode (label);
CREATE INDEX ix_db_dbnode_db_dbnode_user_id ON db_dbnode (user_id);
CREATE INDEX ix_db_dbnode_db_dbnode_mtime ON db_dbnode (mtime);
CREATE INDEX ix_db_dbnode_db_dbnode_dbcomputer_id ON db_dbnode (dbcomputer_id);
CREATE TABLE db_dbcomment (
	id INTEGER NOT NULL, 
	uuid VARCHAR(32) NOT NULL, 
	dbnode_id INTEGER NOT NULL, 
	ctime DATETIME NOT NULL, 
	mtime DATETIME NOT NULL, 
	user_id INTEGER NOT NULL, 
	content TEXT NOT NULL, 
	CONSTRAINT db_dbcomment_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dbcomment_uuid UNIQUE (uuid), 
	CONSTRAINT fk_db_dbcomment_user_id_db_dbuser FOREIGN KEY(user_id) REFERENCES db_dbuser (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, 
	CONSTRAINT fk_db_dbcomment_dbnode_id_db_dbnode FOREIGN KEY(dbnode_id) REFERENCES db_dbnode (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX ix_db_dbcomment_db_dbcomment_dbnode_id ON db_dbcomment (dbnode_id);
CREATE INDEX ix_db_dbcomment_db_dbcomment_user_id ON db_dbcomment (user_id);
CREATE TABLE db_dbgroup_dbnodes (
	id INTEGER NOT NULL, 
	dbnode_id INTEGER NOT NULL, 
	dbgroup_id INTEGER NOT NULL, 
	CONSTRAINT db_dbgroup_dbnodes_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dbgroup_dbnodes_dbgroup_id_dbnode_id UNIQUE (dbgroup_id, dbnode_id), 
	CONSTRAINT fk_db_dbgroup_dbnodes_dbnode_id_db_dbnode FOREIGN KEY(dbnode_id) REFERENCES db_dbnode (id) DEFERRABLE INITIALLY DEFERRED, 
	CONSTRAINT fk_db_dbgroup_dbnodes_dbgroup_id_db_dbgroup FOREIGN KEY(dbgroup_id) REFERENCES db_dbgroup (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX ix_db_dbgroup_dbnodes_db_dbgroup_dbnodes_dbgroup_id ON db_dbgroup_dbnodes (dbgroup_id);
CREATE INDEX ix_db_dbgroup_dbnodes_db_dbgroup_dbnodes_dbnode_id ON db_dbgroup_dbnodes (dbnode_id);
CREATE TABLE db_dblink (
	id INTEGER NOT NULL, 
	input_id INTEGER NOT NULL, 
	output_id INTEGER NOT NULL, 
	label VARCHAR(255) NOT NULL, 
	type VARCHAR(255) NOT NULL, 
	CONSTRAINT db_dblink_pkey PRIMARY KEY (id), 
	CONSTRAINT fk_db_dblink_input_id_db_dbnode FOREIGN KEY(input_id) REFERENCES db_dbnode (id) DEFERRABLE INITIALLY DEFERRED, 
	CONSTRAINT fk_db_dblink_output_id_db_dbnode FOREIGN KEY(output_id) REFERENCES db_dbnode (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX ix_db_dblink_db_dblink_output_id ON db_dblink (output_id);
CREATE INDEX ix_db_dblink_db_dblink_input_id ON db_dblink (input_id);
CREATE INDEX ix_db_dblink_db_dblink_type ON db_dblink (type);
CREATE INDEX ix_db_dblink_db_dblink_label ON db_dblink (label);
CREATE TABLE db_dblog (
	id INTEGER NOT NULL, 
	uuid VARCHAR(32) NOT NULL, 
	time DATETIME NOT NULL, 
	loggername VARCHAR(255) NOT NULL, 
	levelname VARCHAR(50) NOT NULL, 
	dbnode_id INTEGER NOT NULL, 
	message TEXT NOT NULL, 
	metadata JSON NOT NULL, 
	CONSTRAINT db_dblog_pkey PRIMARY KEY (id), 
	CONSTRAINT uq_db_dblog_uuid UNIQUE (uuid), 
	CONSTRAINT fk_db_dblog_dbnode_id_db_dbnode FOREIGN KEY(dbnode_id) REFERENCES db_dbnode (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX ix_db_dblog_db_dblog_levelname ON db_dblog (levelname);
CREATE INDEX ix_db_dblog_db_dblog_loggername ON db_dblog (loggername);
CREATE INDEX ix_db_dblog_db_dblog_dbnode_id ON db_dblog (dbnode_id);
