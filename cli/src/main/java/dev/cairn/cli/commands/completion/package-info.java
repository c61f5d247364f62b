/**
 * cairn completion: the shell completion script for bash and zsh.
 */
package dev.cairn.cli.commands.completion;
