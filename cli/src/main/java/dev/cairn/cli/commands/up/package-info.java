/**
 * cairn up: the server in its embedded mode with a demo, one command on a fresh machine.
 */
package dev.cairn.cli.commands.up;
