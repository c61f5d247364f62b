package dev.cairn.storage.graph;

import java.io.InputStream;
import java.nio.file.Path;

/** One file; its name is the attribute {@code filename}. */
public final class SinglefileData extends Data {

    public static final String TYPE = "data.core.singlefile.SinglefileData.";

    /** A single file named {@code filename} holding {@code content}. */
    public SinglefileData(String filename, byte[] content) {
        super(TYPE);
        setAttribute("filename", filename);
        files().put(filename, content);
    }

    /** A single file with the name and the content of {@code file}, read when the node is stored. */
    public SinglefileData(Path file) {
        super(TYPE);
        String filename = file.getFileName().toString();
        setAttribute("filename", filename);
        files().put(filename, file);
    }

    /**
     * A file whose content is read from {@code content} when the node is stored, in bounded
     * memory (see {@link NodeFiles#put(String, InputStream)}); the caller closes the stream.
     */
    public SinglefileData(String filename, InputStream content) {
        super(TYPE);
        setAttribute("filename", filename);
        files().put(filename, content);
    }

    SinglefileData(NodeRecord row) {
        super(row);
    }

    /** The file's name. */
    public String filename() {
        return (String) attribute("filename");
    }
}
