/** Shapes returned by the core /v1 endpoints, as the studio pages read them. */
import type { ProjectStatus } from "@/lib/services/core/project-status";

export type Product = {
  id: string;
  sku: string;
  name: string;
  product_type: string;
  width_in: number;
  height_in: number;
  bleed_mm: number;
  min_ppi: number;
  color_mode: string;
  price: number;
  currency: string;
  status: "active" | "archived";
  is_public: boolean;
  created_at: string;
  updated_at: string;
};

export type Project = {
  id: string;
  name: string;
  product_id: string;
  status: ProjectStatus;
  design_file_url: string | null;
  preflight_report_id: string | null;
  customer_email: string | null;
  /** Moves made despite preflight errors, with the reason given (oldest first). */
  preflight_overrides?: Array<{ status: string; reason: string; report_id: string; report_status: string; errors: number; warnings: number; at: string }>;
  created_at: string;
  updated_at: string;
};

export const productsQueryKey = ["core", "products"] as const;
export const projectsQueryKey = ["core", "projects"] as const;
