/** The {@code cairn} command line: the root command, failure handling (one line and an exit code), and the build's training run and man pages. */
package dev.cairn.cli;
