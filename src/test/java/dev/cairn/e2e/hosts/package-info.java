/**
 * Many hosts on one machine, for tests of Cairn as a cluster runs it: hosts made of network
 * namespaces on a bridge ({@link dev.cairn.e2e.hosts.Network}, {@link dev.cairn.e2e.hosts.Host}),
 * PostgreSQL (alone, with a standby, or as a pg_auto_failover formation,
 * {@link dev.cairn.e2e.hosts.AutoFailover}), RabbitMQ (one node, or a cluster of three,
 * {@link dev.cairn.e2e.hosts.RabbitCluster}) and an SSH login node of their own on them, workers as real server JVMs on
 * several hosts ({@link dev.cairn.e2e.hosts.Lab}), and the exact counts a run must leave
 * ({@link dev.cairn.e2e.hosts.Ledger}). Hosts are cut off, partitioned from one service, and
 * killed, as they are in production.
 */
package dev.cairn.e2e.hosts;
