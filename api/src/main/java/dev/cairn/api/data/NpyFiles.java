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
            String name = fileName.endsWith(".npy") ? fileName.substring(0, fileName.length() - 4) : "";
            if (!ArrayData.isName(name)) {
                problems.add(where + ": '" + fileName + "' is no array's file; an array is <name>.npy, its name"
                        + " letters, digits and '_'");
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
        String name = fileName.endsWith(".npy") ? fileName.substring(0, fileName.length() - 4) : "";
        if (!ArrayData.isName(name)) {
            throw new InvalidInputException("'" + fileName + "' is no array's file; an array is <name>.npy, its name"
                    + " letters, digits and '_'");
        }
        BufferedInputStream in = new BufferedInputStream(body, 1 << 16);
        in.mark(NpyHeader.MAX_LENGTH);
        NpyHeader header;
        try {
            header = NpyHeader.read(in);
        } catch (ArithmeticException e) {
            throw new InvalidInputException(fileName + ": the header's shape holds more values than a file can");
        }
        in.reset();
        String needs = fileName + ": the header's shape " + shape(header) + " needs";
        if (declared >= 0 && declared != header.fileSize()) {
            throw new InvalidInputException(needs + " " + header.fileSize() + " bytes, the body has " + declared);
        }
        return new ArrayData().set(name, header, new SizedInputStream(in, header.fileSize(), needs));
    }

    private static NpyHeader header(String where, MultipartFile file, List<String> problems) {
        try (InputStream in = file.getInputStream()) {
            NpyHeader header = NpyHeader.read(in);
            if (header.fileSize() != file.getSize()) {
                problems.add(where + ": the header's shape " + shape(header) + " needs " + header.fileSize()
                        + " bytes, the file has " + file.getSize());
                return null;
            }
            return header;
        } catch (InvalidInputException e) {
            problems.add(where + ": " + e.getMessage());
            return null;
        } catch (ArithmeticException e) {
            problems.add(where + ": the header's shape holds more values than a file can");
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("reading the uploaded file " + file.getOriginalFilename(), e);
        }
    }

    private static String shape(NpyHeader header) {
        StringBuilder s = new StringBuilder("(");
        for (int d : header.shape()) {
            s.append(d).append(", ");
        }
        if (header.shape().length > 1) {
            s.setLength(s.length() - 2);
        }
        return s.append(')').toString();
    }
}
