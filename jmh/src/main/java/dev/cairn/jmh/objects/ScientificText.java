package dev.cairn.jmh.objects;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * Deterministic text of the kinds a provenance store holds most of: a simulation's output log, a table
 * of floats written as text (a trajectory), and JSON-like key-values (node attributes). Numbers follow
 * random walks and identifiers are random, so the text compresses about as real outputs do, neither as
 * well as a repeated string nor as badly as random bytes.
 */
enum ScientificText {

    /** A DFT / molecular-dynamics run's standard output: SCF iterations and MD steps. */
    LOG {
        @Override
        void append(StringBuilder out, Random r, int i) {
            double energy = -213.4382 + 0.01 * Math.sin(i / 7.0) + 1e-4 * r.nextGaussian();
            if (i % 5 != 4) {
                out.append(String.format(
                        Locale.ROOT, "     iteration #%3d     ecut=    30.00 Ry     beta= 0.70\n", i % 40 + 1));
                out.append(String.format(Locale.ROOT, "     Davidson diagonalization with overlap\n"));
                out.append(String.format(
                        Locale.ROOT,
                        "     ethr =  %.2E,  avg # of iterations =  %.1f\n",
                        Math.pow(10, -4 - r.nextInt(6)) * (1 + r.nextDouble()),
                        1 + r.nextInt(4) + r.nextInt(10) / 10.0));
                out.append(
                        String.format(Locale.ROOT, "     total cpu time spent up to now is %10.1f secs\n", i * 0.37));
                out.append(String.format(Locale.ROOT, "     total energy              = %16.8f Ry\n", energy));
                out.append(String.format(
                        Locale.ROOT,
                        "     estimated scf accuracy    < %16.8f Ry\n\n",
                        Math.abs(r.nextGaussian()) * Math.pow(10, -2 - (i % 40) / 5.0)));
            } else {
                out.append(String.format(
                        Locale.ROOT,
                        "MD step %6d  t= %9.4f ps  T= %8.3f K  E_pot= %14.6f eV  E_kin= %10.6f eV  P= %9.3f bar\n",
                        i / 5,
                        i * 0.0005,
                        300 + 5 * r.nextGaussian(),
                        energy * 13.605693,
                        1.2 + 0.1 * r.nextGaussian(),
                        1.013 + 50 * r.nextGaussian()));
            }
        }
    },

    /** Positions and forces of atoms, one line per atom, fixed-width floats. */
    TABLE {
        @Override
        void append(StringBuilder out, Random r, int i) {
            String[] species = {"Fe", "O", "O", "Si", "H", "H"};
            out.append(String.format(
                    Locale.ROOT,
                    "%-3s %14.8f %14.8f %14.8f %13.8f %13.8f %13.8f\n",
                    species[i % species.length],
                    (i % 13) * 1.4321 + 0.02 * r.nextGaussian(),
                    (i % 7) * 2.0817 + 0.02 * r.nextGaussian(),
                    (i % 5) * 3.1102 + 0.02 * r.nextGaussian(),
                    0.01 * r.nextGaussian(),
                    0.01 * r.nextGaussian(),
                    0.01 * r.nextGaussian()));
        }
    },

    /** One node per line: UUID, type, attributes, timestamps. */
    JSON {
        @Override
        void append(StringBuilder out, Random r, int i) {
            out.append(String.format(
                    Locale.ROOT,
                    "{\"uuid\": \"%08x-%04x-4%03x-%04x-%012x\", \"node_type\": \"data.core.%s.\", \"process_type\": null, "
                            + "\"attributes\": {\"value\": %.10g, \"units\": \"%s\", \"converged\": %b, \"iterations\": %d, "
                            + "\"kpoints_mesh\": [%d, %d, %d]}, \"ctime\": \"2025-03-%02dT%02d:%02d:%02d.%06d+00:00\", "
                            + "\"label\": \"%s\"}\n",
                    r.nextInt(),
                    r.nextInt(1 << 16),
                    r.nextInt(1 << 12),
                    0x8000 | r.nextInt(1 << 14),
                    r.nextLong() & 0xFFFFFFFFFFFFL,
                    i % 3 == 0 ? "float.Float" : i % 3 == 1 ? "dict.Dict" : "array.ArrayData",
                    -1234.5 + 10 * r.nextGaussian(),
                    i % 2 == 0 ? "eV" : "Ry",
                    r.nextInt(10) > 0,
                    5 + r.nextInt(30),
                    4 + i % 3,
                    4 + i % 3,
                    2 + i % 2,
                    1 + i % 28,
                    i % 24,
                    i % 60,
                    r.nextInt(60),
                    r.nextInt(1_000_000),
                    "scf_step_" + (i % 50)));
        }
    };

    /** Appends the {@code i}-th record of this kind. */
    abstract void append(StringBuilder out, Random r, int i);

    /** {@code count} consecutive objects of {@code size} bytes cut from one long text of this kind. */
    byte[][] objects(int count, int size, long seed) {
        Random r = new Random(seed);
        StringBuilder text = new StringBuilder(count * size + 4096);
        for (int i = 0; text.length() < count * size; i++) {
            append(text, r, i);
        }
        byte[] all = text.toString().getBytes(StandardCharsets.US_ASCII);
        byte[][] out = new byte[count][];
        for (int i = 0; i < count; i++) {
            out[i] = Arrays.copyOfRange(all, i * size, (i + 1) * size);
        }
        return out;
    }
}
