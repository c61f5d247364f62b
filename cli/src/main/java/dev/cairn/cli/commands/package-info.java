/** One class per verb of {@code cairn} ({@code process}, {@code node}, {@code computer}, {@code storage}, ...), each subcommand a nested class. */
package dev.cairn.cli.commands;
