package dev.cairn.cli.commands.archive;

import java.nio.file.Path;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.archive.ArchiveFiles;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;

@Command(
        name = "info",
        description = {
            "Show what an archive file says of itself: its format and version, what wrote it and when, how it was"
                    + " made and its rows per part. Reads the file here, with no server, as far as its header (for"
                    + " an AiiDA .aiida zip: metadata.json and the counts of its database); `archive inspect` has"
                    + " the server verify the whole file.",
            "Example: cairn archive info export.cairn"
        })
final class ArchiveInfo implements Runnable {

    @Mixin
    Session session;

    @Parameters(paramLabel = "FILE", description = "An archive: Cairn's (.cairn) or AiiDA's (.aiida).")
    Path file;

    @Override
    public void run() {
        ObjectNode header = ArchiveFiles.header(file);
        Output out = session.output();
        if (out.json()) {
            out.print(header);
            return;
        }
        ArchiveHeaders.describe(out, header);
        out.line("");
        out.print(ArchiveHeaders.parts(header.path("counts"), Map.of()));
    }
}
