/**
 * The users that nodes, groups and comments belong to: {@code UserStore} and the {@code User}
 * record, with the default user that owns what is created without naming one; and the bearer tokens a
 * server's API lets them use ({@code ApiTokenStore}), stored by a hash of their secret.
 *
 * <p>It builds on the graph and the database packages. The engine takes its default user from here,
 * and process control the email it records a pause, play or kill under.
 */
package dev.cairn.storage.graph.users;
