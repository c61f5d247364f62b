package dev.cairn.cli.output;

import tools.jackson.databind.JsonNode;

/** A listing of a node's files ({@code node repo ls}, {@code calcjob inputls}): the JSON, or a name a line. */
public final class FileListings {

    private FileListings() {}

    /** Folders end in {@code /}; {@code recursive} listings give paths, others names. */
    public static void print(Output out, JsonNode listing, boolean recursive) {
        if (out.json()) {
            out.print(listing);
            return;
        }
        for (JsonNode entry : listing.path("entries")) {
            String name = recursive
                    ? entry.path("path").asString()
                    : entry.path("name").asString();
            out.line("directory".equals(entry.path("type").asString()) ? name + "/" : name);
        }
    }
}
