/**
 * cairn db: the database's schema status and its migrations.
 */
package dev.cairn.cli.commands.db;
