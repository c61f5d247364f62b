/**
 * cairn group: create groups, add and remove nodes, list and show them.
 */
package dev.cairn.cli.commands.group;
