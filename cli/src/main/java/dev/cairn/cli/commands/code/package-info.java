/**
 * cairn code: set up, list, show and hide codes, the executables on a computer that calculation jobs run.
 */
package dev.cairn.cli.commands.code;
