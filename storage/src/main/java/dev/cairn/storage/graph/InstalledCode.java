package dev.cairn.storage.graph;

import dev.cairn.storage.errors.InvalidInputException;

/** An executable installed on a computer, at an absolute path. */
public final class InstalledCode extends Code {

    public static final String TYPE = "data.core.code.installed.InstalledCode.";

    public InstalledCode(long computerId, String absolutePath) {
        super(TYPE, requireAbsolute(absolutePath));
        setComputerId(computerId);
    }

    InstalledCode(NodeRecord row) {
        super(row);
    }

    private static String requireAbsolute(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new InvalidInputException("an installed code's executable needs an absolute path, got " + path);
        }
        return path;
    }
}
