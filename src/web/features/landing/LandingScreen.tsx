import { productName } from '../../config';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ContactSection } from './ContactSection';
import { DemoSection } from './DemoSection';
import { FeatureGrid } from './FeatureGrid';
import { Hero } from './Hero';
import { useAnalyticsScript } from './useAnalyticsScript';

export function LandingScreen() {
  useDocumentTitle(`${productName} - Mental Health Solutions for Universities`);
  useAnalyticsScript();
  return (
    <>
      <Hero />
      <FeatureGrid />
      <DemoSection />
      <ContactSection />
    </>
  );
}
