-- A code can only be in a folder of its own account, whatever the application checks: the folder
-- reference includes the account. Deleting a folder sets only folder_id to null (the account stays),
-- which needs PostgreSQL 15's column list on SET NULL.
CREATE UNIQUE INDEX "folders_id_account_id_key" ON "folders"("id", "account_id");

ALTER TABLE "qr_codes" DROP CONSTRAINT "qr_codes_folder_id_fkey";
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_folder_id_account_id_fkey"
  FOREIGN KEY ("folder_id", "account_id") REFERENCES "folders"("id", "account_id")
  ON DELETE SET NULL ("folder_id") ON UPDATE NO ACTION;
