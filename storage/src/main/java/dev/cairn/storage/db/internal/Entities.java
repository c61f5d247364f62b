package dev.cairn.storage.db.internal;

import java.util.List;

/**
 * Every mapped entity, as {@code Database} registers them with Hibernate. The stores of users,
 * computers and comments use their entities; the rest are mapped only so that Hibernate validates
 * their tables against the migrations at start-up, and stay package-private.
 */
public final class Entities {

    public static final List<Class<?>> MAPPED = List.of(
            UserEntity.class,
            ComputerEntity.class,
            AuthInfoEntity.class,
            NodeEntity.class,
            LinkEntity.class,
            GroupEntity.class,
            CommentEntity.class,
            LogEntity.class,
            SettingEntity.class);

    private Entities() {}
}
