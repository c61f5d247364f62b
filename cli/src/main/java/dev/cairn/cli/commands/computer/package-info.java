/**
 * cairn computer: set up, configure (transport and scheduler), test, list and export computers.
 */
package dev.cairn.cli.commands.computer;
