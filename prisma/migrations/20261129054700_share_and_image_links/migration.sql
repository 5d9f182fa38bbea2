-- Sharing (docs/sharing.md): read-only stats pages of a code or a folder, and public image URLs,
-- both behind tokens that are the row's id signed by the service; revoked or expired rows answer
-- nothing. Deleted with their code, folder or account.
CREATE TABLE "share_links" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "qr_code_id" UUID,
    "folder_id" UUID,
    "fields" VARCHAR(16)[],
    "password_hash" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "share_links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "share_links_one_subject" CHECK (("qr_code_id" IS NULL) <> ("folder_id" IS NULL))
);
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "share_links_account_id_qr_code_id_idx" ON "share_links"("account_id", "qr_code_id");
CREATE INDEX "share_links_account_id_folder_id_idx" ON "share_links"("account_id", "folder_id");

CREATE TABLE "image_links" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "qr_code_id" UUID NOT NULL,
    "size" INTEGER NOT NULL,
    "format" VARCHAR(4) NOT NULL,
    "style_overrides" JSONB,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "image_links_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "image_links" ADD CONSTRAINT "image_links_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "image_links" ADD CONSTRAINT "image_links_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "image_links_account_id_qr_code_id_idx" ON "image_links"("account_id", "qr_code_id");

CREATE TABLE "image_link_keys" (
    "account_id" UUID NOT NULL,
    "secret" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "image_link_keys_pkey" PRIMARY KEY ("account_id")
);
ALTER TABLE "image_link_keys" ADD CONSTRAINT "image_link_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
