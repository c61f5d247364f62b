package dev.cairn.api.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.engine.Engine;

/**
 * The first start of an installation makes an admin token for the default user and writes it to
 * the token file, which only its owner may read; later starts find tokens and leave it. The
 * secret exists nowhere else: a lost file means making a token with another admin token, or
 * deleting every token to have the next start make one again. The file is written before the web
 * server takes requests, so whoever waits for the server's first answer finds it there.
 */
@Component
class AdminToken implements SmartInitializingSingleton {

    private static final Logger LOG = LoggerFactory.getLogger(AdminToken.class);

    private final TokenService tokens;
    private final Engine engine;
    private final CairnProperties properties;

    AdminToken(TokenService tokens, Engine engine, CairnProperties properties) {
        this.tokens = tokens;
        this.engine = engine;
        this.properties = properties;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (!properties.hasRole(CairnProperties.Role.API) || !tokens.isEmpty()) {
            return;
        }
        TokenService.Issued issued =
                tokens.create(engine.graph().userId(), "admin, made at the first start", EnumSet.of(Role.ADMIN), null);
        Path file = properties.tokenFile();
        write(file, issued.secret());
        LOG.info("the first start made an admin token; it is in {} (readable by its owner only)", file);
    }

    private static void write(Path file, String secret) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path temp = file.resolveSibling(file.getFileName() + ".new");
            Files.deleteIfExists(temp);
            Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(temp, secret + "\n");
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("writing the admin token to " + file, e);
        }
    }
}
