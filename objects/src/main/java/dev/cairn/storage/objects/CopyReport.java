package dev.cairn.storage.objects;

/**
 * What {@link Container#copyTo} did.
 *
 * @param filesLinked files hard-linked to the previous copy, unchanged since it was made
 * @param filesCopied files copied (new or changed)
 * @param bytesCopied the bytes of the copied files
 */
public record CopyReport(long filesLinked, long filesCopied, long bytesCopied) {}
