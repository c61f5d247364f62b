package dev.cairn.storage.hash;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Fixed nodes of each kind, built the same way on every JVM (the pinned hashes depend on it). */
final class ExampleNodes {

    static final UUID COMPUTER = UUID.fromString("6f1c2a4e-93b7-4d0e-a1f2-5c8d9e0b7a31");
    static final String POTENTIAL_KEY = "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a";
    static final String OUTPUT_KEY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private ExampleNodes() {}

    static HashInput integer(long value) {
        return HashInput.ofData("data.core.int.Int.", Map.of("value", value), Map.of(), null);
    }

    /** A Dict node: nested maps and lists, every scalar type. */
    static HashInput dict() {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("name", "relax");
        attributes.put("ecutwfc", 45.0);
        attributes.put("nbnd", 24L);
        attributes.put("spin", false);
        attributes.put("smearing", null);
        attributes.put("kpoints", List.of(List.of(4L, 4L, 4L), List.of(0.5, 0.5, 0.5)));
        attributes.put(
                "control",
                Map.of("calculation", "vc-relax", "tprnfor", true, "thresholds", Map.of("etot", 1e-6, "forc", 1e-4)));
        attributes.put("label", "Grüße 🧪");
        return HashInput.ofData("data.core.dict.Dict.", attributes, Map.of(), null);
    }

    /** A structure of {@code sites} atoms: cell, pbc, two kinds, positions on a lattice. */
    static HashInput structure(int sites) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("cell", List.of(List.of(5.43, 0.0, 0.0), List.of(0.0, 5.43, 0.0), List.of(0.0, 0.0, 10.86)));
        attributes.put("pbc1", true);
        attributes.put("pbc2", true);
        attributes.put("pbc3", false);
        attributes.put(
                "kinds",
                List.of(
                        Map.of("name", "Si", "symbols", List.of("Si"), "weights", List.of(1.0), "mass", 28.0855),
                        Map.of("name", "Ge", "symbols", List.of("Ge"), "weights", List.of(1.0), "mass", 72.630)));
        List<Object> siteList = new ArrayList<>();
        for (int i = 0; i < sites; i++) {
            Map<String, Object> site = new LinkedHashMap<>();
            site.put("kind_name", i % 3 == 0 ? "Ge" : "Si");
            site.put("position", List.of(i * 0.4525 + 0.1, (i % 6) * 1.3575, (i / 6) * 1.81 + 0.001 * i));
            siteList.add(site);
        }
        attributes.put("sites", siteList);
        return HashInput.ofData("data.core.structure.StructureData.", attributes, Map.of(), null);
    }

    /** A calculation job: process type, options, computer and three inputs. */
    static HashInput calcJob() {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("resources", Map.of("num_machines", 1L, "num_mpiprocs_per_machine", 8L));
        attributes.put("parser_name", "quantumespresso.pw");
        attributes.put("withmpi", true);
        attributes.put("input_filename", "aiida.in");
        return new HashInput(
                "process.calculation.calcjob.CalcJobNode.",
                "aiida.calculations:quantumespresso.pw",
                attributes,
                Map.of(),
                COMPUTER,
                Map.of(
                        "structure", NodeHasher.hash(structure(8)),
                        "parameters", NodeHasher.hash(dict()),
                        "code", NodeHasher.hash(integer(1))));
    }

    /** A folder: files at the top and nested, and an empty directory. */
    static HashInput folder() {
        return HashInput.ofData("data.core.folder.FolderData.", Map.of(), folderFiles(), null);
    }

    static Map<String, Object> folderFiles() {
        return Map.of(
                "o",
                Map.of(
                        "aiida.in", file(POTENTIAL_KEY),
                        "out",
                                Map.of(
                                        "o",
                                        Map.of(
                                                "aiida.out", file(OUTPUT_KEY),
                                                "empty", Map.of())),
                        "pseudo", Map.of("o", Map.of("Si.upf", file(POTENTIAL_KEY)))));
    }

    static Map<String, Object> file(String key) {
        return Map.of("k", key);
    }
}
