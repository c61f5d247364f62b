/**
 * Shell jobs: {@code core.shell}, a calculation job built into the engine that runs any program on
 * any computer with full provenance, as aiida-shell does for AiiDA, so a scientist needs no plugin
 * of their own ({@link dev.cairn.engine.shell.ShellJob}). Its placeholders, file names, link labels
 * and exit codes follow aiida-shell; its parsers read JSON files and numbers matched by regular
 * expressions. {@link dev.cairn.engine.shell.CommandLine} splits a command line as a shell would,
 * for a server or client that takes a command as one string.
 *
 * <p>It builds on the plugin API ({@code process}) and, for its JSON parser, on the launch's JSON
 * forms of data.
 */
package dev.cairn.engine.shell;
