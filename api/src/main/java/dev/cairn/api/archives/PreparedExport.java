package dev.cairn.api.archives;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.function.LongConsumer;

import dev.cairn.storage.archive.ArchiveExport;
import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ExportRequest;

/**
 * An export resolved and counted, ready to be written: what would fail it failed while it was prepared,
 * when a problem could still be answered; writing it reads one snapshot of the graph.
 */
final class PreparedExport {

    private final ArchiveExport export;
    private final ExportRequest request;
    private final ArchiveHeader counted;

    PreparedExport(ArchiveExport export, ExportRequest request, ArchiveHeader counted) {
        this.export = export;
        this.request = request;
        this.counted = counted;
    }

    /** What the archive will hold, counted when it was prepared: a dry run's answer. */
    public ArchiveHeader counted() {
        return counted;
    }

    /**
     * Writes the archive in {@code format} to {@code body}; a format that cannot stream is spooled under
     * {@code spool} first, and {@code length} hears its length before any byte is written.
     */
    public void write(ArchiveFormat format, OutputStream body, Path spool, LongConsumer length) throws IOException {
        ArchiveDownload.write(
                format, writer -> export.export(request, writer, ArchiveProgress.NONE), body, spool, length);
    }
}
