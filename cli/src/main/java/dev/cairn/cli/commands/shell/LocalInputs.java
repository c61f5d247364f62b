package dev.cairn.cli.commands.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.Multipart;
import dev.cairn.cli.output.Output;

/**
 * The files and folders on this machine that a shell job's {@code --input NAME=@PATH} names: checked before
 * anything is sent, uploaded as data nodes just before the job is submitted, and deleted again when the server
 * refuses the job, so that a refused run stores nothing.
 */
final class LocalInputs {

    private final Map<String, Path> paths = new LinkedHashMap<>();
    private final List<String> uploaded = new ArrayList<>();

    /** The file or folder {@code path} as the input {@code name}; one that is not there is refused now. */
    void add(String name, Path path) {
        if (!Files.exists(path)) {
            throw CliException.usage("--input: no file or folder " + path);
        }
        paths.put(name, path);
    }

    /** Uploads each (a file as a SinglefileData, a folder as a FolderData of its files) into {@code nodes}. */
    void uploadInto(CairnClient client, ObjectNode nodes) {
        paths.forEach((name, path) -> {
            String uuid = upload(client, path);
            uploaded.add(uuid);
            nodes.putObject(name).put("uuid", uuid);
        });
    }

    /** Deletes the nodes {@link #uploadInto} made; when that fails, says which stay. */
    void discard(CairnClient client, Output out) {
        if (uploaded.isEmpty()) {
            return;
        }
        String nodes =
                uploaded.stream().map(u -> "node=" + CairnClient.param(u)).collect(Collectors.joining("&"));
        try {
            client.delete("/api/v1/nodes?" + nodes);
        } catch (CliException e) {
            out.note("the files uploaded for the job stay, as the nodes " + String.join(" ", uploaded) + " ("
                    + e.getMessage() + "): `cairn node delete` removes them");
        }
    }

    private static String upload(CairnClient client, Path path) {
        Multipart form = new Multipart();
        if (Files.isDirectory(path)) {
            try {
                form.folder("file", path);
            } catch (IOException e) {
                throw CliException.usage("--input: cannot read " + path + ": " + e.getMessage());
            }
            return JsonTrees.text(client.post("/api/v1/nodes/files?folder=true", form), "uuid", "");
        }
        form.file("file", path.getFileName().toString(), path);
        return JsonTrees.text(client.post("/api/v1/nodes/files", form), "uuid", "");
    }
}
