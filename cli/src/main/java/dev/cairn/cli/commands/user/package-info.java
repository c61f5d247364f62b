/**
 * cairn user: list, show, add and configure the users of a server.
 */
package dev.cairn.cli.commands.user;
