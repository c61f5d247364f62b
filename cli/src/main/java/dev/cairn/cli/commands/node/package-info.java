/**
 * cairn node: show nodes and change their label, description and extras; delete, rehash, draw their provenance graph and read their files.
 */
package dev.cairn.cli.commands.node;
