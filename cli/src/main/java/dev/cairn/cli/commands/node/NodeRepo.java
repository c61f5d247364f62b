package dev.cairn.cli.commands.node;

import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.RemoteNodeFiles;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.FileListings;

/** {@code cairn node repo ls|cat|dump}. */
@Command(
        name = "repo",
        description = "A node's files (its repository).",
        subcommands = {NodeRepo.Ls.class, NodeRepo.Cat.class, NodeRepo.Dump.class})
final class NodeRepo {

    @Command(
            name = "ls",
            description = {
                "List a folder of a node's files (the top by default).",
                "Example: cairn node repo ls" + " 42 out"
            })
    static final class Ls implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = NodeRef.HELP)
        NodeRef ref;

        @Parameters(index = "1", paramLabel = "PATH", arity = "0..1", description = "A folder; the top when left out.")
        String folder;

        @Option(
                names = {"-r", "--recursive"},
                description = "Every file below the folder.")
        boolean recursive;

        @Override
        public void run() {
            CairnClient client = session.client();
            JsonNode listing =
                    new RemoteNodeFiles(client, ref.resolve(client)).list(folder == null ? "" : folder, recursive);
            FileListings.print(session.output(), listing, recursive);
        }
    }

    @Command(
            name = "cat",
            description = {
                "Write a file of a node to standard output, byte for byte.",
                "Example: cairn node repo" + " cat 42 aiida.in"
            })
    static final class Cat implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = NodeRef.HELP)
        NodeRef ref;

        @Parameters(index = "1", paramLabel = "PATH", description = "The file's path among the node's files.")
        String file;

        @Override
        public void run() {
            CairnClient client = session.client();
            new RemoteNodeFiles(client, ref.resolve(client)).copyToStandardOutput(file);
        }
    }

    @Command(
            name = "dump",
            description = {
                "Copy all files of a node into a folder (new, or empty).",
                "Example: cairn node repo" + " dump 42 ./calc-42"
            })
    static final class Dump implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = NodeRef.HELP)
        NodeRef ref;

        @Parameters(index = "1", paramLabel = "DEST", description = "The folder to write; must not exist or be empty.")
        Path dest;

        @Override
        public void run() {
            CairnClient client = session.client();
            Path target = session.workingDirectory().resolve(dest);
            List<Path> written = new RemoteNodeFiles(client, ref.resolve(client)).dump(target);
            session.output()
                    .note(written.size() + " file" + (written.size() == 1 ? "" : "s") + " written to " + target);
        }
    }
}
