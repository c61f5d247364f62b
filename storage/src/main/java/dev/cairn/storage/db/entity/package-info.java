/**
 * The Hibernate entities: a class per mapped table (node, link, log, user, computer, authinfo,
 * group, comment, setting), mapped to the columns the migrations create. {@code Database} registers
 * them and Hibernate validates them against the schema at start-up, so a mapping that drifts from
 * the migrations fails fast.
 *
 * <p>They depend on Jakarta Persistence and Hibernate's annotations only. The stores of users,
 * computers and comments read and write through them; nodes, links and logs are written through
 * JDBC and COPY instead, for speed.
 */
package dev.cairn.storage.db.entity;
