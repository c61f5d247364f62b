package dev.cairn.engine.launch;

import java.util.List;

import dev.cairn.storage.graph.StructureData;

/** A structure and its JSON form, for tests. */
final class Structures {

    static final String CUBIC_JSON = """
            {"cell": [[4.0, 0, 0], [0, 4.0, 0], [0, 0, 4.0]], "pbc1": true, "pbc2": true, "pbc3": false,
             "kinds": [{"name": "Ba", "symbols": ["Ba"], "weights": [1.0], "mass": 137.327},
                       {"name": "O", "symbols": ["O"], "weights": [1.0], "mass": 15.999}],
             "sites": [{"kind_name": "Ba", "position": [0, 0, 0]}, {"kind_name": "O", "position": [2.0, 2.0, 2.0]}]}
            """;

    private Structures() {}

    static StructureData cubic() {
        return new StructureData(
                new double[][] {{4, 0, 0}, {0, 4, 0}, {0, 0, 4}},
                new boolean[] {true, true, false},
                List.of(StructureData.Kind.of("Ba", 137.327), StructureData.Kind.of("O", 15.999)),
                List.of(new StructureData.Site("Ba", 0, 0, 0), new StructureData.Site("O", 2, 2, 2)));
    }
}
