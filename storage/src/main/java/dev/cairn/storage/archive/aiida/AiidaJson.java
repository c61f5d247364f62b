package dev.cairn.storage.archive.aiida;

import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the AiiDA archive code: JSON as AiiDA writes it, numbers kept as they are. */
final class AiidaJson {

    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private AiidaJson() {}
}
