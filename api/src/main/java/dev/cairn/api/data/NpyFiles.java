package dev.cairn.api.data;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.springframework.web.multipart.MultipartFile;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.ArrayData;
import dev.cairn.storage.graph.NpyHeader;

/**
 * Arrays uploaded as {@code .npy} files, one a part named {@code <array>.npy}: each file's header is
 * read and its size checked against the header's shape before anything is stored, so an array streams
 * to the object store whole, whatever its size, and a truncated or foreign file is refused by name. A
 * raw body of one array is checked as it streams instead.
 */
final class NpyFiles {

    private NpyFiles() {}

    /**
     * An unstored ArrayData of the files by name, or null with what is wrong added to {@code problems},
     * each beginning with {@code where}; {@code open} gives the stream a node reads as it is stored.
     */
    static ArrayData arrays(
            String where,
            Map<String, MultipartFile> files,
            Function<MultipartFile, InputStream> open,
            List<String> problems) {
        int before = problems.size();
        if (files.isEmpty()) {
            problems.add(where + ": an array node holds at least one array, a part named <array>.npy");
        }
        ArrayData arrays = new ArrayData();
        files.forEach((fileName, file) -> {
            String name = arrayName(fileName);
            if (name == null) {
                problems.add(where + ": " + notAnArray(fileName));
                return;
            }
            NpyHeader header = header(where + ": " + fileName, file, problems);
            if (header != null) {
                arrays.set(name, header, open.apply(file));
            }
        });
        return problems.size() > before ? null : arrays;
    }

    /**
     * An unstored ArrayData of one array whose {@code .npy} file is {@code body}: its header read first,
     * then the file streamed as the node is stored, refused if it is not as long as the header's shape
     * needs. {@code declared} is the body's declared length, -1 when unknown (a chunked body).
     */
    static ArrayData array(String fileName, InputStream body, long declared) throws IOException {
        String name = arrayName(fileName);
        if (name == null) {
            throw new InvalidInputException(notAnArray(fileName));
        }
        BufferedInputStream in = new BufferedInputStream(body, 1 << 16);
        in.mark(NpyHeader.MAX_LENGTH);
        NpyHeader header;
        try {
            header = NpyHeader.read(in);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(fileName + ": " + e.getMessage(), e);
        }
        in.reset();
        String needs = fileName + ": the header's shape " + header.shapeText() + " needs";
        if (declared >= 0 && declared != header.fileSize()) {
            throw new InvalidInputException(needs + " " + header.fileSize() + " bytes, the body has " + declared);
        }
        return new ArrayData().set(name, header, new SizedInputStream(in, header.fileSize(), needs));
    }

    private static NpyHeader header(String where, MultipartFile file, List<String> problems) {
        try (InputStream in = file.getInputStream()) {
            NpyHeader header = NpyHeader.read(in);
            if (header.fileSize() != file.getSize()) {
                problems.add(where + ": the header's shape " + header.shapeText() + " needs " + header.fileSize()
                        + " bytes, the file has " + file.getSize());
                return null;
            }
            return header;
        } catch (InvalidInputException e) {
            problems.add(where + ": " + e.getMessage());
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("reading the uploaded file " + file.getOriginalFilename(), e);
        }
    }

    /** The array a file name {@code <name>.npy} holds, or null when it is no array's file name. */
    private static String arrayName(String fileName) {
        String name = fileName.endsWith(".npy") ? fileName.substring(0, fileName.length() - 4) : "";
        return ArrayData.isName(name) ? name : null;
    }

    private static String notAnArray(String fileName) {
        return "'" + fileName + "' is no array's file; an array is <name>.npy, its name letters, digits and '_'";
    }
}
