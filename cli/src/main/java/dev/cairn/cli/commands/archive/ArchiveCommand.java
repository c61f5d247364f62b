package dev.cairn.cli.commands.archive;

import picocli.CommandLine.Command;

/** {@code cairn archive create|import|info|inspect}: provenance moved between installations as files. */
@Command(
        name = "archive",
        description = {
            "Archives: a piece of the provenance graph, or all of it, as one file (Cairn's format, .cairn) to move"
                    + " to another installation.",
            "create downloads an export from the server, import uploads a file to it, info reads a file's header"
                    + " here with no server, inspect has the server read a file through and verify every checksum."
        },
        subcommands = {ArchiveCreate.class, ArchiveImportCommand.class, ArchiveInfo.class, ArchiveInspect.class})
public final class ArchiveCommand {}
