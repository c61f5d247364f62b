package dev.cairn.storage.graph;

import java.io.IOException;
import java.nio.file.Path;

import dev.cairn.storage.errors.InvalidInputException;

/** An executable kept in the node's files and uploaded with every job; the path is relative to them. */
public final class PortableCode extends Code {

    public static final String TYPE = "data.core.code.portable.PortableCode.";

    /** The files of {@code folder}; {@code executable} is relative to it and must be among them. */
    public PortableCode(Path folder, String executable) throws IOException {
        super(TYPE, executable);
        files().putTree("", folder);
        if (!files().exists(executable)) {
            // the files by their paths in the code: the folder they came from is the server's, not the user's
            throw new InvalidInputException("executable '" + executable + "' is not in the code's files "
                    + files().keys().keySet());
        }
    }

    PortableCode(NodeRecord row) {
        super(row);
    }
}
