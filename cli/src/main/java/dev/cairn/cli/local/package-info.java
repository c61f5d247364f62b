/** The server on this host: finding its jar, its settings and pid files, and starting or stopping server and worker JVMs. */
package dev.cairn.cli.local;
