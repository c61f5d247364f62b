package dev.cairn.storage.objects;

import java.nio.file.Path;

/**
 * Where an object's content lies as it is stored: a file (its loose file, or its pack) and the bytes
 * of the object in it, for sending them without reading them through memory (a web server's
 * sendfile, {@code FileChannel.transferTo}). Only an object stored uncompressed has one.
 *
 * @param file   the file holding the content
 * @param offset where the content starts in the file
 * @param length the content's length, which is the object's size
 */
public record ObjectRegion(Path file, long offset, long length) {}
