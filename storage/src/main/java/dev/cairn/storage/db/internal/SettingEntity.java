package dev.cairn.storage.db.internal;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A row of {@code setting}: one profile-wide value. */
@Entity
@Table(name = "setting")
class SettingEntity {

    @Id
    public String key;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public Object value;

    @Column(nullable = false)
    public String description;

    @Column(nullable = false)
    public OffsetDateTime time;
}
