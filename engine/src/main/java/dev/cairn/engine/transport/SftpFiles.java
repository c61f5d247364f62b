package dev.cairn.engine.transport;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClient.Attributes;
import org.apache.sshd.sftp.client.SftpClient.DirEntry;
import org.apache.sshd.sftp.client.SftpClient.OpenMode;

/**
 * The file half of {@link SshTransport}, over SFTP. Copies keep each file's permission bits
 * (a job script stays executable). Every call takes the connection's current SFTP channel,
 * so a call after a dropped connection opens a new one.
 */
final class SftpFiles {

    /** {@code r/w/x} for owner, group and others, in the order of the octal digits. */
    private static final PosixFilePermission[] MODE_BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
    };

    private final Supplier<SftpClient> sftp;
    private final String on;

    SftpFiles(Supplier<SftpClient> sftp, String where) {
        this.sftp = sftp;
        this.on = " on " + where;
    }

    void mkdirs(String path) {
        String p = PosixPaths.absolute(path);
        call("cannot create directory " + p, s -> {
            mkdirs(s, p, p);
            return null;
        });
    }

    void write(String path, byte[] content) {
        String p = PosixPaths.absolute(path);
        call("cannot write " + p, s -> {
            try (OutputStream out = s.write(p, OpenMode.Write, OpenMode.Create, OpenMode.Truncate)) {
                out.write(content);
            }
            return null;
        });
    }

    byte[] read(String path) {
        String p = PosixPaths.absolute(path);
        return call("cannot read " + p, s -> {
            try (InputStream in = s.read(p)) {
                return in.readAllBytes();
            }
        });
    }

    void put(Path local, String path) {
        String p = PosixPaths.absolute(path);
        call("cannot put " + local + " to " + p, s -> {
            if (!Files.isDirectory(local)) {
                upload(s, local, p);
                return null;
            }
            Files.walkFileTree(local, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    String target = remote(p, local.relativize(dir));
                    Attributes existing = statOrNull(s, target);
                    if (existing == null) {
                        s.mkdir(target);
                    } else if (!existing.isDirectory()) {
                        throw new TransportException(
                                "cannot put " + dir + " to " + target + on + ": a file is in the way", false, null);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    upload(s, file, remote(p, local.relativize(file)));
                    return FileVisitResult.CONTINUE;
                }
            });
            return null;
        });
    }

    void get(String path, Path local) {
        String p = PosixPaths.absolute(path);
        call(
                "cannot get " + p + on + " to " + local,
                s -> {
                    download(s, p, s.stat(p), local);
                    return null;
                },
                "");
    }

    boolean exists(String path) {
        String p = PosixPaths.absolute(path);
        return call("cannot check " + p, s -> statOrNull(s, p) != null);
    }

    boolean isDirectory(String path) {
        String p = PosixPaths.absolute(path);
        return call("cannot check " + p, s -> {
            Attributes a = statOrNull(s, p);
            return a != null && a.isDirectory();
        });
    }

    List<String> list(String directory) {
        String p = PosixPaths.absolute(directory);
        return call("cannot list " + p, s -> names(s, p).stream().sorted().toList());
    }

    void remove(String path) {
        String p = PosixPaths.removable(path);
        call("cannot remove " + p, s -> {
            remove(s, p);
            return null;
        });
    }

    /** Creates the missing parents first; a directory that appears meanwhile (another worker) is fine. */
    private void mkdirs(SftpClient s, String p, String requested) throws IOException {
        Attributes a = statOrNull(s, p);
        if (a != null) {
            if (a.isDirectory()) {
                return;
            }
            throw new TransportException(
                    "cannot create directory " + requested + on + ": " + p + " is not a directory", false, null);
        }
        if (!p.equals("/")) {
            mkdirs(s, PosixPaths.parent(p), requested);
        }
        try {
            s.mkdir(p);
        } catch (IOException e) {
            Attributes now = statOrNull(s, p);
            if (now == null || !now.isDirectory()) {
                throw e;
            }
        }
    }

    /** Removes a link rather than what it points to, and a tree bottom-up. */
    private void remove(SftpClient s, String p) throws IOException {
        Attributes a;
        try {
            a = s.lstat(p);
        } catch (IOException e) {
            if (Failures.isMissing(e)) {
                return;
            }
            throw e;
        }
        try {
            if (a.isDirectory()) {
                for (String name : names(s, p)) {
                    remove(s, PosixPaths.child(p, name));
                }
                s.rmdir(p);
            } else {
                s.remove(p);
            }
        } catch (IOException e) {
            if (!Failures.isMissing(e)) {
                throw e;
            }
        }
    }

    private void upload(SftpClient s, Path file, String target) throws IOException {
        try (InputStream in = Files.newInputStream(file);
                OutputStream out = s.write(target, OpenMode.Write, OpenMode.Create, OpenMode.Truncate)) {
            in.transferTo(out);
        }
        s.setStat(target, new Attributes().perms(mode(Files.getPosixFilePermissions(file))));
    }

    /** Follows links, as reading a linked file does. */
    private void download(SftpClient s, String p, Attributes a, Path local) throws IOException {
        if (a.isDirectory()) {
            if (!Files.isDirectory(local)) {
                Files.createDirectory(local);
            }
            for (String name : names(s, p)) {
                String child = PosixPaths.child(p, name);
                download(s, child, s.stat(child), local.resolve(name));
            }
            return;
        }
        try (InputStream in = s.read(p)) {
            Files.copy(in, local, REPLACE_EXISTING);
        }
        Files.setPosixFilePermissions(local, permissions(a.getPermissions()));
    }

    private static List<String> names(SftpClient s, String directory) throws IOException {
        List<String> names = new ArrayList<>();
        try {
            for (DirEntry e : s.readDir(directory)) {
                if (!e.getFilename().equals(".") && !e.getFilename().equals("..")) {
                    names.add(e.getFilename());
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause(); // the directory listing's iterator wraps the SFTP error
        }
        return names;
    }

    private static Attributes statOrNull(SftpClient s, String p) throws IOException {
        try {
            return s.stat(p);
        } catch (IOException e) {
            if (Failures.isMissing(e)) {
                return null;
            }
            throw e;
        }
    }

    private static String remote(String root, Path relative) {
        String r = relative.toString();
        return r.isEmpty()
                ? root
                : PosixPaths.child(root, r.replace(relative.getFileSystem().getSeparator(), "/"));
    }

    static int mode(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (int bit = 0; bit < MODE_BITS.length; bit++) {
            if (permissions.contains(MODE_BITS[bit])) {
                mode |= 1 << bit;
            }
        }
        return mode;
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < MODE_BITS.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(MODE_BITS[bit]);
            }
        }
        return permissions;
    }

    private interface SftpCall<T> {
        T run(SftpClient sftp) throws IOException;
    }

    private <T> T call(String action, SftpCall<T> call) {
        return call(action, call, on);
    }

    private <T> T call(String action, SftpCall<T> call, String suffix) {
        try {
            return call.run(sftp.get());
        } catch (IOException e) {
            throw Failures.remote(action + suffix, e);
        }
    }
}
