package dev.cairn.api.archives;

import org.springframework.stereotype.Service;

import dev.cairn.api.archives.ArchiveViews.ImportView;
import dev.cairn.storage.Storage;
import dev.cairn.storage.archive.ArchiveExport;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ExportRequest;
import dev.cairn.storage.archive.ImportOptions;

/**
 * Archives of the graph, for every surface of the server: an export of what a selection names (groups,
 * nodes, computers, codes) closed under the export rules, counted before a byte is written; an import of
 * an uploaded archive, all or nothing, as a user.
 */
@Service
class ArchiveService {

    private final Storage storage;
    private final ExportRequests requests;
    private final String producer;

    ArchiveService(Storage storage, ExportRequests requests) {
        this.storage = storage;
        this.requests = requests;
        String version = ArchiveService.class.getPackage().getImplementationVersion();
        this.producer = "cairn " + (version == null ? "development" : version);
    }

    /** The export of what {@code selection} names, resolved and counted. */
    public PreparedExport export(ExportRequests.Selection selection) {
        ExportRequest request = requests.of(selection);
        ArchiveExport export = storage.archiveExport(producer);
        return new PreparedExport(export, request, export.count(request));
    }

    /** Imports the uploaded archive as the user {@code userId}, whole or not at all; {@code progress} hears how far it got. */
    public ImportView importFrom(ArchiveUpload upload, ImportOptions options, ArchiveProgress progress, long userId) {
        return ImportView.of(
                upload.format(), storage.archiveImport(userId).importFrom(upload.reader(), options, progress));
    }
}
