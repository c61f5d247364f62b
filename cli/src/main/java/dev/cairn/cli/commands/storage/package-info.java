/**
 * cairn storage: the storage's figures (info), its maintenance (maintain, validate) and its backup and restore.
 */
package dev.cairn.cli.commands.storage;
