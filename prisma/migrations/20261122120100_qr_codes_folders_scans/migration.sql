-- Trigram matching backs the case-insensitive `search` filter of the code list.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateTable
CREATE TABLE "folders" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "folders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "qr_codes" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "type" VARCHAR(16) NOT NULL,
    "content" JSONB NOT NULL,
    "content_string" TEXT NOT NULL,
    "style" JSONB NOT NULL DEFAULT '{}',
    "folder_id" UUID,
    "is_dynamic" BOOLEAN NOT NULL DEFAULT false,
    "short_code" VARCHAR(16),
    "status" VARCHAR(16) NOT NULL DEFAULT 'active',
    "expires_at" TIMESTAMPTZ(3),
    "scans" BIGINT NOT NULL DEFAULT 0,
    "render_version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "qr_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scan_events" (
    "id" BIGSERIAL NOT NULL,
    "qr_code_id" UUID NOT NULL,
    "scanned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_agent" VARCHAR(512),
    "referrer" VARCHAR(512),
    "device" VARCHAR(16) NOT NULL,
    "os" VARCHAR(32) NOT NULL,
    "browser" VARCHAR(32) NOT NULL,
    "visitor_hash" CHAR(32) NOT NULL,
    "is_bot" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "scan_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "folders_account_id_created_at_idx" ON "folders"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "qr_codes_short_code_key" ON "qr_codes"("short_code");

-- CreateIndex
CREATE INDEX "qr_codes_account_id_created_at_id_idx" ON "qr_codes"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "qr_codes_account_id_name_id_idx" ON "qr_codes"("account_id", "name", "id");

-- CreateIndex
CREATE INDEX "qr_codes_account_id_type_created_at_idx" ON "qr_codes"("account_id", "type", "created_at" DESC);

-- CreateIndex
CREATE INDEX "qr_codes_account_id_is_dynamic_created_at_idx" ON "qr_codes"("account_id", "is_dynamic", "created_at" DESC);

-- CreateIndex
CREATE INDEX "qr_codes_account_id_folder_id_created_at_idx" ON "qr_codes"("account_id", "folder_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "qr_codes_name_trgm_idx" ON "qr_codes" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "qr_codes_content_string_trgm_idx" ON "qr_codes" USING GIN ("content_string" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "scan_events_qr_code_id_scanned_at_idx" ON "scan_events"("qr_code_id", "scanned_at");

-- AddForeignKey
ALTER TABLE "folders" ADD CONSTRAINT "folders_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scan_events" ADD CONSTRAINT "scan_events_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
