package dev.cairn.storage.graph;

import dev.cairn.storage.errors.InvalidInputException;

/** An executable installed on a computer, at an absolute path. */
public final class InstalledCode extends Code {

    public static final String TYPE = "data.core.code.installed.InstalledCode.";

    /**
     * A code installed on computer {@code computerId} at {@code absolutePath}.
     *
     * @throws InvalidInputException if the path is not absolute
     */
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
