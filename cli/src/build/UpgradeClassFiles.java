import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites the class files of a jar that are older than Java 6 as Java 8 class files with stack map
 * frames, in place. The JDK's class-data cache (CDS, AOT) skips pre-Java-6 classes, and picocli ships
 * Java 5 class files: without this, its 200 classes are loaded and verified by the old verifier on every
 * start of `cairn`, a large share of a short command's start (docs/performance.md). The code is unchanged;
 * ASM only recomputes the frames. Run by the build (cli/pom.xml):
 *
 *   java -cp asm.jar UpgradeClassFiles.java lib/picocli-x.jar
 */
public final class UpgradeClassFiles {

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        Path upgraded = jar.resolveSibling(jar.getFileName() + ".upgraded");
        int count = 0;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()});
                ZipInputStream in = new ZipInputStream(Files.newInputStream(jar));
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(upgraded))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                if (entry.getName().endsWith(".class") && majorVersion(bytes) < Opcodes.V1_6) {
                    bytes = upgrade(bytes, loader);
                    count++;
                }
                out.putNextEntry(new ZipEntry(entry.getName()));
                out.write(bytes);
                out.closeEntry();
            }
        }
        Files.move(upgraded, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("upgraded " + count + " class files of " + jar.getFileName() + " to Java 8");
    }

    private static int majorVersion(byte[] classFile) {
        return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
    }

    private static byte[] upgrade(byte[] classFile, ClassLoader loader) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return loader;
            }
        };
        new ClassReader(classFile)
                .accept(
                        new ClassVisitor(Opcodes.ASM9, writer) {
                            @Override
                            public void visit(
                                    int version,
                                    int access,
                                    String name,
                                    String signature,
                                    String superName,
                                    String[] interfaces) {
                                super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
                            }
                        },
                        ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }
}
