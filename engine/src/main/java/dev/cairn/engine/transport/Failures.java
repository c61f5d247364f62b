package dev.cairn.engine.transport;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * Turns an {@link IOException} into a {@link TransportException} whose message says what
 * failed, on which path and computer, and why, and whose {@code transient} flag says whether
 * trying again may help: a refusal by the file system will not change, a dropped connection may.
 */
final class Failures {

    private Failures() {}

    /**
     * A failure of this machine's file system: none goes away by itself. {@code path} is the
     * one {@code action} names; a different failing path (a missing parent) is added.
     */
    static TransportException local(String action, String path, IOException e) {
        return new TransportException(action + ": " + localReason(e, path), false, e);
    }

    /**
     * A failure over SSH: the SFTP server's answer (no such file, permission denied, ...) is
     * final, anything else (a closed channel, a reset connection, a timeout) is transient.
     */
    static TransportException remote(String action, IOException e) {
        if (e instanceof SftpException s) {
            boolean connectionGone = s.getStatus() == SftpConstants.SSH_FX_NO_CONNECTION
                    || s.getStatus() == SftpConstants.SSH_FX_CONNECTION_LOST;
            return new TransportException(action + ": " + sftpReason(s), connectionGone, e);
        }
        if (e instanceof FileSystemException f) {
            return local(action, null, f);
        }
        return new TransportException(action + ": connection failed (" + describe(e) + ")", true, e);
    }

    /** Whether an SFTP answer means the path does not exist. */
    static boolean isMissing(IOException e) {
        return e instanceof SftpException s
                && (s.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE
                        || s.getStatus() == SftpConstants.SSH_FX_NO_SUCH_PATH);
    }

    private static String localReason(IOException e, String path) {
        String where = e instanceof FileSystemException f
                        && f.getFile() != null
                        && !f.getFile().equals(path)
                ? " (" + f.getFile() + ")"
                : "";
        return switch (e) {
            case NoSuchFileException x -> "no such file or directory" + where;
            case AccessDeniedException x -> "permission denied" + where;
            case NotDirectoryException x -> "not a directory" + where;
            case DirectoryNotEmptyException x -> "directory not empty" + where;
            case FileAlreadyExistsException x -> "already exists" + where;
            case FileSystemException x when x.getReason() != null -> x.getReason() + where;
            default -> describe(e);
        };
    }

    private static String sftpReason(SftpException e) {
        return switch (e.getStatus()) {
            case SftpConstants.SSH_FX_NO_SUCH_FILE, SftpConstants.SSH_FX_NO_SUCH_PATH -> "no such file or directory";
            case SftpConstants.SSH_FX_PERMISSION_DENIED -> "permission denied";
            case SftpConstants.SSH_FX_FILE_ALREADY_EXISTS -> "already exists";
            case SftpConstants.SSH_FX_NOT_A_DIRECTORY -> "not a directory";
            case SftpConstants.SSH_FX_FILE_IS_A_DIRECTORY -> "is a directory";
            case SftpConstants.SSH_FX_DIR_NOT_EMPTY -> "directory not empty";
            default -> e.getMessage() + " (SFTP status " + SftpConstants.getStatusName(e.getStatus()) + ")";
        };
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
