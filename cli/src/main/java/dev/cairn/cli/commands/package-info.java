/**
 * The verbs of {@code cairn}, a package per noun ({@code process}, {@code node}, {@code computer},
 * {@code storage}, ...) with one class per command and its subcommands nested or beside it. A noun's
 * package uses the shared packages ({@code client}, {@code options}, {@code output}, {@code local},
 * {@code config}, {@code archive}, {@code query}) and no other noun's.
 */
package dev.cairn.cli.commands;
