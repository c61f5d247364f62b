/** The REST API as the command line calls it: the client, its light HTTP transport, problem details as {@code CliException}s, exit codes, multipart forms and the event stream. */
package dev.cairn.cli.client;
